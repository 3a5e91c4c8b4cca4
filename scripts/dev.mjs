// `npm run dev`: the API server with reload (tsx watch) on PORT (3000) and Vite's dev server (5173), which
// proxies API calls to it. Ctrl-C stops both.
import { spawn } from 'node:child_process';

const children = [
  spawn('npm', ['run', 'dev', '-w', '@manaboard/server'], { stdio: 'inherit' }),
  spawn('npm', ['run', 'dev', '-w', '@manaboard/web'], { stdio: 'inherit' }),
];
const stop = () => {
  for (const child of children) child.kill('SIGTERM');
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const child of children) {
  child.on('exit', (code) => {
    if (code) {
      console.error(`a dev process exited with ${code}; stopping`);
      stop();
      process.exitCode = code;
    }
  });
}
