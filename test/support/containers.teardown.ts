export default async function teardown(): Promise<void> {
  const started = (globalThis as { __containers?: Array<{ stop(): Promise<void> }> }).__containers ?? [];
  await Promise.all(started.map((c) => c.stop()));
}
