import { displayHandle } from '@manaboard/contract';
import type { AccountState } from '../../../lib/account';
import { AccountAvatar } from '../../../components/ui/account-avatar';

type HeaderAccountProps = { account: AccountState; onLink: () => void; linking: boolean };

/** The header's link-account pill, or once linked the handle with the avatar (SPEC §2 top bar). */
export function HeaderAccount({ account, onLink, linking }: HeaderAccountProps) {
  if (account.connected && account.handle) {
    return (
      <span className="flex min-w-0 items-center gap-2 rounded-full border border-white/15 bg-dusk/70 py-1 pl-1 pr-3 text-sm font-semibold text-white">
        <AccountAvatar handle={account.handle} avatarUrl={account.avatarUrl} size="sm" />
        <span className="max-w-[6.5rem] truncate sm:max-w-[10rem]">{displayHandle(account.handle)}</span>
      </span>
    );
  }
  return (
    <button
      type="button"
      onClick={onLink}
      disabled={linking}
      className="whitespace-nowrap rounded-full bg-violet-700 px-3 py-1.5 text-sm font-bold sm:px-4 text-white shadow-md shadow-mana/30 hover:bg-violet-600 disabled:cursor-wait disabled:opacity-70 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-gold"
    >
      {linking ? 'Linking…' : 'Link account'}
    </button>
  );
}
