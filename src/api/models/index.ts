export * from './common';
export * from './conversation';
export * from './sandbox';
export * from './sandboxSpec';
export * from './settings';
export * from './startTask';
export * from './modelSetup';
export * from './conversationManage';
