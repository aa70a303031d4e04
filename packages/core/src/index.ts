export { Tool } from './decorators/tool.decorator';
export { Param } from './decorators/param.decorator';
export { Input } from './decorators/input.decorator';
export { Ctx } from './decorators/ctx.decorator';
export { ToolGroup } from './decorators/tool-group.decorator';
export { ToolDefinitionError } from './decorators/definition-error';
export type { ToolOptions, ParamOptions, ToolGroupOptions, ToolEffect, ToolApproval, ToolCaller } from './decorators/tool-options';

export { defineToolManifest } from './manifest/define-tool-manifest';
export { ManifestMismatchError } from './manifest/check-manifest';
export { TOOL_NAME_PATTERN, deriveToolName } from './manifest/tool-name';
export type { ToolManifest, ToolManifestEntry, ParameterBinding, Class, InstancePlan, ShapePlan, ValuePlan } from './manifest/manifest.types';

export { schemaProblems } from './validation/schema-check';
export { compiledCheckRuntime, type CompiledInputCheck } from './validation/compiled-check';

export { ToolContainer } from './container';
export type { ToolContainerOptions, ToolSearchKind, ExecutionDefaults, ToolReply, CallOptions, StartedCall, ToolDescription } from './container';
export type { ExecuteOptions, AssistantContentBlock, BatchExecutor } from './execution/batch-executor';
export { ToolError, type ToolResultContentBlock } from './execution/tool-error';
export type { ResultBlock, AudioBlock, ResourceBlock, ResourceLinkBlock } from './execution/result-blocks';
export type { ToolEvent, CallOutcome, CallResult, ToolCall, SkipReason } from './execution/call.types';
export type { InputLimits } from './validation/plain-input';
export type { WriteFailurePolicy } from './execution/schedule';
export { consoleLogger, type ToolContext, type ToolLogger, type ToolLogLevel, type ToolClient, type ElicitationRequest, type ElicitationAnswer } from './context';

export { runToolLoop } from './loop/run-tool-loop';
export { streamToolLoop, type ToolStream } from './loop/stream-tool-loop';
export { resumeToolLoop, streamResumeToolLoop, type ResumeToolLoopOptions } from './loop/resume-tool-loop';
export type { ToolLoopOptions, ToolLoopResult, PassThroughParams } from './loop/loop-options';
export type { MessagesClient, MessagesRequestOptions } from './loop/messages-client';
export type { ToolStreamEvent, StreamedEffect } from './loop/stream-events';
export type { ToolLoopStopReason, ToolLoopLimit } from './loop/stop-reasons';
export type { ToolLoopEvent } from './loop/loop-events';
export type { ToolLoopUsage } from './loop/usage';
export { ToolLoopError } from './loop/tool-loop-error';
export { checkTranscript, checkRequest } from './loop/transcript-rules';
export type { TranscriptViolation, TranscriptRule, TranscriptMessage, TranscriptRequest } from './loop/transcript-rules';
export type { RunnableToolsOptions } from './interop/runnable-tools';
export { ToolCallScheduler, type ToolCallSchedulerOptions, type ScheduledCallOptions } from './interop/call-scheduler';
export type { TelemetryOptions } from './interop/opentelemetry';
export { HIDDEN_ERROR_TEXT, toServerSentEvents, type ServerSentEventsOptions } from './interop/server-sent-events';

export { RUN_STATE_VERSION, createRunState, checkRunState } from './approval/run-state';
export type { RunState, RunStatus, PendingCall, RunBudgetsUsed, RunUsage, CreateRunStateInput } from './approval/run-state';
export { RunStateError, type RunStateProblem } from './approval/run-state-error';
export { signRunState, verifyRunState, type SignedRunState, type RunStateSecret } from './approval/run-state-signature';
export { checkDecisions, type ApprovalDecision, type ApprovalDecisions, type DecidedCall, type SupersededDecision } from './approval/decisions';
export { DecisionError, type DecisionProblem } from './approval/decision-error';
export { needsApproval, type ApprovalPolicy, type ApprovalQuestion } from './approval/approval-policy';
export type { ApprovalCheck } from './approval/approval-check';
export { DEFAULT_CLAIM_LEASE_MS, checkRunStoreOptions } from './approval/run-store';
export { MAX_KEY_LENGTH, keyProblem } from './approval/storable-key';
export type { RunStore, StoredRun, ClaimOptions, RecordedResult, RunStoreOptions } from './approval/run-store';
export {
  RunConflictError,
  RunClaimError,
  RunStoreError,
  type RunConflictProblem,
  type RunClaimProblem,
  type RunStoreOperation,
  type RunStoreProblem,
} from './approval/run-store-errors';
export { checkJournalResult, checkJournaledEntry } from './approval/journal-result';
export { InMemoryRunStore } from './approval/in-memory-run-store';
