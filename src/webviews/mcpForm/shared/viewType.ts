// The MCP & Git Providers form's webview type, in a file of its own: the host registers its serializer at first use,
// and importing the protocol for it would bring the page's schemas along.
export const VIEW_TYPE = 'openhands.mcpForm';
