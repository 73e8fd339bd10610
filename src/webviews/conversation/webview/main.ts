/**
 * The conversation panel's page, as `scripts/build/pages.mjs` bundles it (one module and one sheet,
 * `conversation.css`): the custom elements it uses, its sheets, then the page (`conversationPage.ts`).
 */
import '@vscode-elements/elements/dist/vscode-badge/index.js';
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-progress-ring/index.js';
import './conversation.css';
import { ConversationPage } from './conversationPage';

new ConversationPage();
