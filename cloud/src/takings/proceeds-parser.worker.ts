// The worker side of ProceedsParser: reads Promotec answers off the main thread, one at a time.
import { parentPort } from 'node:worker_threads';
import { parseProceedsXml } from './promotec-wire';
import type { ParseJob, ParseAnswer } from './proceeds-parser';

parentPort!.on('message', ({ id, text, month }: ParseJob) => {
  const answer: ParseAnswer = { id, result: parseProceedsXml(text, month) };
  parentPort!.postMessage(answer);
});
