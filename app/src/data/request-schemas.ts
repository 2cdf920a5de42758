// The request schemas a write is checked against before it is kept (actions.ts), the same zod
// schemas as the server's. Loaded on the first write, not with the data layer: zod builds every
// schema as its module runs, main-thread work a phone would otherwise do before the first screen
// answers a tap.
export { createResponseSchema, updateResponseSchema } from '../../../shared/schemas/responses.js';
export { createReportSchema } from '../../../shared/schemas/moderation.js';
export { createTopicSchema } from '../../../shared/schemas/topics.js';
