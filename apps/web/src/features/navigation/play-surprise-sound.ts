/** Notes of the default chime (a rising arpeggio, ~0.6 s): synthesised, so no sound file is shipped. */
const CHIME_HZ = [659.25, 830.61, 987.77, 1318.51];
const NOTE_GAP_S = 0.08;
const NOTE_LENGTH_S = 0.35;

type AudioContextConstructor = typeof AudioContext;

function audioContextClass(): AudioContextConstructor | undefined {
  const scope = window as unknown as {
    AudioContext?: AudioContextConstructor;
    webkitAudioContext?: AudioContextConstructor;
  };
  return scope.AudioContext ?? scope.webkitAudioContext;
}

let context: AudioContext | undefined;

/**
 * The logo's surprise sound (SPEC §2): the operator's sound file when branding names one, else a short
 * synthesised chime. Never throws: a browser without audio simply stays silent.
 */
export function playSurpriseSound(soundUrl: string | null): void {
  try {
    if (soundUrl) {
      void new Audio(soundUrl).play().catch(() => undefined);
      return;
    }
    const Context = audioContextClass();
    if (!Context) return;
    context ??= new Context();
    const start = context.currentTime + 0.01;
    CHIME_HZ.forEach((hz, index) => {
      const at = start + index * NOTE_GAP_S;
      const oscillator = context!.createOscillator();
      const gain = context!.createGain();
      oscillator.type = index % 2 ? 'triangle' : 'sine';
      oscillator.frequency.setValueAtTime(hz, at);
      gain.gain.setValueAtTime(0.0001, at);
      gain.gain.exponentialRampToValueAtTime(0.18, at + 0.015);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + NOTE_LENGTH_S);
      oscillator.connect(gain).connect(context!.destination);
      oscillator.start(at);
      oscillator.stop(at + NOTE_LENGTH_S + 0.02);
    });
  } catch {
    // No audio here: the surprise is optional.
  }
}
