import type { AuthInfo } from '@modelcontextprotocol/server';

/**
 * Who a request speaks for, as a key: the verified token's client and subject. Two requests
 * with the same key are the same principal; a request without `authInfo` is anonymous.
 */
export function principalOf(authInfo: AuthInfo | undefined): string {
  if (!authInfo) return 'anonymous';
  const extra = authInfo.extra as { sub?: unknown; subject?: unknown } | undefined;
  const subject = extra?.sub ?? extra?.subject;
  return JSON.stringify([authInfo.clientId, typeof subject === 'string' ? subject : null]);
}
