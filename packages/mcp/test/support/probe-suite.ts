import { createMcpServer } from '@toolwright/mcp';
import { ProbeLog, probeContainer, type Session } from '../fixtures/probe-tools';
import { RecordingLogger, listen } from './clients';

/** A verified token's client as the probe tools' session. */
export const probeAuth = (info: { clientId: string } | undefined): Session | undefined => (info ? { customerId: info.clientId } : undefined);

/**
 * The probe tools behind the HTTP handler with two clients, Ana's (token `t-ana`) and an
 * anonymous one, open for the tests of the calling describe block. `connect` makes a client of
 * whichever SDK the block speaks through; the fields are set once its `beforeAll` has run.
 */
export function probeSuite<C extends { close(): Promise<void> }>(connect: (url: URL, token?: string) => Promise<C>) {
  const log = new ProbeLog();
  const toolLog = new RecordingLogger();
  const server = createMcpServer(probeContainer(log, toolLog), { name: 'probe', version: '1.0.0', auth: probeAuth });
  const suite = { log, toolLog } as { log: ProbeLog; toolLog: RecordingLogger; http: Awaited<ReturnType<typeof listen>>; ana: C; anonymous: C };
  beforeAll(async () => {
    suite.http = await listen(server);
    suite.ana = await connect(suite.http.url, 't-ana');
    suite.anonymous = await connect(suite.http.url);
  });
  afterAll(async () => {
    await Promise.all([suite.ana.close(), suite.anonymous.close()]);
    await suite.http.close();
  });
  return suite;
}
