// The document of the app exactly as the server builds it, without a database or a token verifier:
// building the app and reading its routes' declarations touch neither (scripts/api-docs.ts, tests).
import { createApp, type AppDeps } from '../app.js';
import { buildOpenApiDocument, type OpenApiDocument } from './document.js';

export const describedApi = (): OpenApiDocument => buildOpenApiDocument(createApp({ store: {} } as AppDeps).app);
