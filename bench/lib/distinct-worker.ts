// A worker thread of the distinct-traffic generator (distinct-stream.ts): builds the ranges of frames it is sent and
// writes each as a part file (the frames back to back) and its index (each frame's length and where its time is).
import fs from 'node:fs/promises';
import path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { FrameBuilder } from './distinct-frames';
import type { Planted } from './distinct-planted';
import { partName, type PartTask } from './distinct-stream';
import type { DistinctParams } from './distinct-traffic';

type Data = { params: DistinctParams; start: number; planted: Array<[number, Planted]>; dir: string };

const data = workerData as Data;
const builder = new FrameBuilder(data.params, data.start, { at: new Map(data.planted) });

parentPort?.on('message', (task: PartTask | null) => {
  if (task === null) {
    parentPort?.close();
    return;
  }
  void (async () => {
    const frames: Uint8Array[] = [];
    const index = new Uint32Array((task.to - task.from) * 2);
    for (let i = task.from; i < task.to; i++) {
      const built = builder.build(i);
      frames.push(built.bytes);
      index[(i - task.from) * 2] = built.bytes.length;
      index[(i - task.from) * 2 + 1] = built.timeAt;
    }
    const name = path.join(data.dir, partName(task.part));
    await fs.writeFile(`${name}.bin`, Buffer.concat(frames));
    await fs.writeFile(`${name}.idx`, Buffer.from(index.buffer));
    parentPort?.postMessage({ done: task.part });
  })();
});
