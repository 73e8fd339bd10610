// Everything the extension does, loaded by the small entry (extension.ts) on first use: a view
// asking for its rows, a command, a restored panel or a link. Bundled apart as dist/services.js.
import * as vscode from 'vscode';
import { registerConnectionCommands } from './commands/connectionCommands';
import { registerServerCommands } from './commands/servers/serverCommands';
import { registerConversationCommands } from './commands/conversationCommands';
import { registerSandboxCommands } from './commands/sandboxCommands';
import { registerMessageCommands } from './commands/messageCommands';
import { registerManageCommands } from './commands/conversationManage';
import { registerChangeCommands } from './commands/changes/changeCommands';
import { registerBranchCommands } from './commands/branches/branchCommands';
import { ExternalOpener } from './commands/externalOpener';
import { ProviderHostsCache } from './state/providerHosts';
import { ConversationChanges } from './state/conversationChanges';
import { HandoffRecords } from './state/handoffRecords';
import { SteeringError } from './state/conversationSteering';
import { ChangeDocuments } from './views/changeDocuments';
import { ChangeImages } from './views/changeImages';
import { registerChangeDecorations } from './views/changeDecorations';
import { MementoManager } from './core/mementoManager';
import { SecretsManager, type ApiKeys, type ServerSecrets } from './core/secretsManager';
import { Connection } from './state/connection';
import { Log } from './core/log';
import { PlainHttpConsent } from './core/plainHttp';
import { registerMcpForm, type McpFormTestApi } from './webviews/mcpForm/host/register';
import { registerModelForm, type ModelFormTestApi } from './webviews/modelForm/host/register';
import {
  registerConversationPanels,
  type ConversationPanelTestApi,
} from './webviews/conversation/host/register';
import { ConversationFeeds } from './state/conversationFeeds';
import { ConversationSteering } from './state/conversationSteering';
import { ConversationWatch } from './state/conversationWatch';
import { ConversationNotifier } from './views/conversationNotifier';
import type { OpenHandsNode } from './views/nodes';
import { RefreshScheduler } from './state/refreshScheduler';
import { SandboxActions } from './state/sandboxActions';
import { SpecCatalog } from './state/specCatalog';
import { StatusBar } from './views/statusBar';
import { OpenHandsStore } from './state/store';
import { ConversationTreeProvider, SandboxTreeProvider } from './views/treeProviders';
import { ViewPresenter } from './views/viewPresenter';
import { FlowNotice } from './core/flowNotice';
import { ModelSetupOffer } from './views/modelOffer';
import { ModelReadyContext } from './views/modelReadyContext';
import { ManageOffersContext } from './views/manageOffersContext';
import type { DeferredTree } from './shell/deferredTree';
import type { PanelRegistrar } from './shell/deferredPanels';

/** What the entry registered with VS Code at activation, for the services to take over. */
export interface Shell {
  sandboxes: Pick<DeferredTree<OpenHandsNode>, 'attach'>;
  conversations: Pick<DeferredTree<OpenHandsNode>, 'attach'>;
  registrar: PanelRegistrar;
}

/**
 * The live services. The entry hands them out only when the extension runs its test suite: they
 * hold the API keys and a client that sends one, which no other extension may read.
 */
export interface OpenHandsServices {
  connection: Connection;
  store: OpenHandsStore;
  scheduler: RefreshScheduler;
  statusBar: StatusBar;
  sandboxesProvider: SandboxTreeProvider;
  conversationsProvider: ConversationTreeProvider;
  sandboxesView: vscode.TreeView<OpenHandsNode>;
  conversationsView: vscode.TreeView<OpenHandsNode>;
  specs: SpecCatalog;
  apiKeys: ApiKeys;
  /** The MCP form's secrets per server (tests check Forget Server removes them). */
  mcpSecrets: ServerSecrets;
  /** The Model page's LLM key per server (tests check Forget Server removes it). */
  llmKeys: ServerSecrets;
  log: Log;
  /** Where the output channel's log file lives (`OpenHands.log` in it). */
  logUri: vscode.Uri;
  /** MCP & Git Providers form hooks. */
  mcpForm: McpFormTestApi | undefined;
  /** Model page hooks. */
  modelForm: ModelFormTestApi | undefined;
  /** Conversation panel hooks. */
  conversationPanels: ConversationPanelTestApi | undefined;
  steering: ConversationSteering;
  watch: ConversationWatch;
  notifier: ConversationNotifier;
  changes: ConversationChanges;
  /** What the server flow (Connect, Switch, Forget) says now, with its link. */
  serverNotice: FlowNotice;
  /** Every "Set Up the Model…" button asks for the Model page here (`asked` counts). */
  modelOffer: ModelSetupOffer;
  /** The walkthrough's `openhands.modelReady`; `refresh()` after the model was set up. */
  modelReady: ModelReadyContext;
  /** Opens links outside VS Code; in test mode it records them instead (`opened`). */
  opener: ExternalOpener;
}

/**
 * Builds the services and wires them to what the entry registered (`shell`): the tree views, the
 * panels' serializers and the link handler. Registers the real commands (the entry has dropped its
 * stand-ins just before). Resolves once the settings and the stored key are read.
 */
export async function startServices(
  context: vscode.ExtensionContext,
  shell: Shell,
): Promise<OpenHandsServices> {
  const log = new Log();
  const secrets = new SecretsManager(context.secrets);
  const mementos = new MementoManager(context.globalState);
  const apiKeys = secrets.apiKeys;
  const connection = new Connection(apiKeys, log, new PlainHttpConsent(mementos));
  const store = new OpenHandsStore(connection);
  const scheduler = new RefreshScheduler(store, connection);
  const actions = new SandboxActions(store, connection, log);
  const feeds = new ConversationFeeds(connection, store, log);
  const steering = new ConversationSteering(connection, store, actions, feeds, log);
  const watch = new ConversationWatch({
    store,
    feeds,
    mementos,
    scope: () => connection.config.notifications,
    secrets: () => [connection.apiKey],
  });

  // what each conversation started from local state was given (workspace state; no secret)
  const handoffRecords = new HandoffRecords(context.workspaceState, () => connection.config.serverUrl);
  const changes = new ConversationChanges({
    store,
    feeds,
    log,
    handoffs: handoffRecords,
    isOffline: (error) => error instanceof SteeringError,
  });
  const changeDocuments = new ChangeDocuments(changes);
  const serverNotice = new FlowNotice();
  const modelOffer = new ModelSetupOffer(log);
  const modelReady = new ModelReadyContext(connection, store, log);
  const providerHosts = new ProviderHostsCache(() => connection.client);
  const opener = new ExternalOpener(context.extensionMode === vscode.ExtensionMode.Test);
  const manageOffers = new ManageOffersContext(connection, store, log);

  const sandboxesProvider = new SandboxTreeProvider(store, log, watch, changes);
  const conversationsProvider = new ConversationTreeProvider(store, watch, changes);
  const specs = new SpecCatalog(connection);
  const sandboxesView = shell.sandboxes.attach(sandboxesProvider);
  const conversationsView = shell.conversations.attach(conversationsProvider);
  const presenter = new ViewPresenter(store, connection, sandboxesView, conversationsView);
  const statusBar = new StatusBar(store, connection);
  const conversationPanels = registerConversationPanels(context, {
    connection,
    feeds,
    steering,
    watch,
    log,
    changes,
    setUpModel: () => void modelOffer.open(),
    providerHosts,
    openExternal: (uri) => opener.open(uri),
    registrar: shell.registrar,
  });
  const notifier = new ConversationNotifier({
    watch,
    scope: () => connection.config.notifications,
    isInView: (id) => conversationPanels.panels.isInView(id),
    badgeView: conversationsView,
  });

  // Poll only while a view is visible: hidden views cost zero requests.
  const views = [
    ['openhands.sandboxes', sandboxesView],
    ['openhands.conversations', conversationsView],
  ] as const;
  for (const [id, view] of views) {
    context.subscriptions.push(
      view.onDidChangeVisibility((event) => scheduler.setVisible(id, event.visible)),
    );
  }

  context.subscriptions.push(
    log,
    secrets,
    connection,
    store,
    scheduler,
    sandboxesProvider,
    conversationsProvider,
    specs,
    presenter,
    statusBar,
    feeds,
    steering,
    watch,
    notifier,
    changes,
    changeDocuments,
    serverNotice,
    modelReady,
    providerHosts,
    new ChangeImages(changeDocuments),
    registerChangeDecorations(),
    // a message or a Continue from anywhere in VS Code makes the conversation watched, and working
    steering.onWillSteer((id) => watch.watch(id, { working: true })),
    // another server: nothing followed on the old one may notify under the new one's name
    connection.onDidSwitchServer(() => {
      watch.releaseAll();
      changes.clear();
    }),
    connection.onDidChange(() => watch.reconcile()),
    vscode.workspace.onDidChangeConfiguration((event) => {
      // after the connection has read the new settings
      if (event.affectsConfiguration('openhands.notifications')) setTimeout(() => watch.reconcile(), 0);
    }),
    ...registerConnectionCommands({
      connection,
      keys: apiKeys,
      log,
      scheduler,
      specs,
      extensionId: context.extension.id,
    }),
    ...registerServerCommands({
      connection,
      keys: apiKeys,
      log,
      mcpSecrets: secrets.mcpForm,
      llmKeys: secrets.llmKeys,
      notice: serverNotice,
      modelReady,
    }),
    ...registerSandboxCommands({ store, connection, actions, specs, log }),
    ...registerConversationCommands({
      store,
      connection,
      log,
      reveal: (conversation) =>
        conversationsView.reveal({ kind: 'conversation', conversation }, { select: true, focus: false }),
      panels: conversationPanels.panels,
      steering,
      watch,
      workspaceState: context.workspaceState,
      handoffRecords,
      modelOffer,
      modelReady,
      queueOffered: async () => (await manageOffers.read()).queueMessage,
    }),
    ...registerMessageCommands({ store, connection, steering, watch, panels: conversationPanels.panels }),
    ...registerChangeCommands({ store, connection, changes, documents: changeDocuments, log }),
    ...registerBranchCommands({ store, connection, log, providerHosts, opener }),
    ...registerManageCommands({
      store,
      connection,
      log,
      closePanel: (id) => conversationPanels.panels.close(id),
      agentClient: (endpoint) => feeds.clientFor(endpoint),
    }),
    manageOffers,
  );

  const mcpForm = registerMcpForm(context, {
    connection,
    log,
    secrets,
    mementos,
    registrar: shell.registrar,
  });

  const modelForm = registerModelForm(context, {
    connection,
    log,
    llmKeys: secrets.llmKeys,
    modelChanged: () => void modelReady.refresh(),
    registrar: shell.registrar,
  });

  // Reads settings and the stored key only. The first request waits until activation is over and
  // a view is visible.
  await connection.rebuild();
  setImmediate(() => {
    for (const [id, view] of views) if (view.visible) scheduler.setVisible(id, true);
  });

  return {
    connection,
    store,
    scheduler,
    statusBar,
    sandboxesProvider,
    conversationsProvider,
    sandboxesView,
    conversationsView,
    specs,
    apiKeys,
    mcpSecrets: secrets.mcpForm,
    llmKeys: secrets.llmKeys,
    log,
    logUri: context.logUri,
    mcpForm,
    modelForm,
    conversationPanels: conversationPanels.testApi,
    steering,
    watch,
    notifier,
    changes,
    serverNotice,
    modelOffer,
    modelReady,
    opener,
  };
}
