// Preloaded (`--import`) into a server a test starts: writes the Node built-in modules the process loaded to the
// file RECORD_BUILTINS_FILE names as it exits (e2e/server-bundle.e2e.ts).
import fs from 'node:fs';

const file = process.env.RECORD_BUILTINS_FILE;
if (file) {
  process.on('exit', () => {
    const builtins = process.moduleLoadList.filter((entry) => entry.startsWith('NativeModule '));
    fs.writeFileSync(file, builtins.map((entry) => entry.slice('NativeModule '.length)).join('\n'));
  });
}
