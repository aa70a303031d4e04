export { toolUse, text, serverToolUse, webSearchResult } from './blocks';
export { turn, apiError } from './turns';
export type { ScriptedTurn, ScriptedReply, ScriptedError, ScriptedRequest, ScriptedRequestBody } from './turns';
export { startScriptedServer } from './scripted-server';
export { scriptedStreamEvents } from './stream-script';
export type { StreamScript, ScriptedStreamEvent } from './stream-script';
export type { ScriptedServer, ScriptedServerOptions, RecordedRequest } from './scripted-server';
export { checkTranscript, checkRequest } from '../loop/transcript-rules';
export type { TranscriptViolation, TranscriptRule, TranscriptMessage, TranscriptRequest } from '../loop/transcript-rules';
