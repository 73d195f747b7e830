/** Runs one autocannon load (a LoadSpec received over IPC) and sends the LoadResult back: load from outside a process. */
import { runLoad, type LoadSpec } from './http-load';

process.once('message', (msg: { label: string; spec: LoadSpec }) => {
  runLoad(msg.label, msg.spec).then(
    (result) => process.send!({ result }, () => process.exit(0)),
    (err: unknown) => process.send!({ error: String(err instanceof Error ? err.stack : err) }, () => process.exit(1)),
  );
});
process.on('disconnect', () => process.exit(0));
