import type { Branding } from '@manaboard/contract';
import { playSurpriseSound } from '../play-surprise-sound';

/** The logo (SPEC §2): a click plays the programme's surprise sound. */
export function LogoButton({ branding }: { branding: Branding | undefined }) {
  const name = branding?.programmeName ?? '';
  return (
    <button
      type="button"
      aria-label={`${name || 'Logo'}: play a surprise sound`}
      data-testid="logo"
      onClick={() => playSurpriseSound(branding?.logoSoundUrl ?? null)}
      className="flex shrink-0 items-center gap-2 rounded-lg focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-mana-soft"
    >
      <img
        src={branding?.logoUrl ?? '/brand/logo.svg'}
        alt=""
        width={36}
        height={36}
        className="h-9 w-9 transition-transform active:scale-90"
      />
      <span className="hidden min-w-[6.5rem] text-left text-lg font-extrabold tracking-tight text-white min-[420px]:inline">
        {name}
      </span>
    </button>
  );
}
