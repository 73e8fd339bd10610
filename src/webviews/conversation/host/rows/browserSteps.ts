// What a browser step did, in words (issue 24): the page it opened, the element it clicked, the text it
// typed, rather than the tool's JSON. The agent server's own summary of a browser call is that JSON.

/** A line for a browser action (`Browser…Action` of agent server 1.34), or undefined for another kind. */
export function browserStepSummary(action: Record<string, unknown> | undefined): string | undefined {
  const kind = action?.['kind'];
  if (typeof kind !== 'string' || !kind.startsWith('Browser') || !action) return undefined;
  const text = (key: string) => (typeof action[key] === 'string' ? (action[key] as string) : undefined);
  const element = typeof action['index'] === 'number' ? `element ${action['index']}` : 'an element';
  const inNewTab = action['new_tab'] === true ? ' in a new tab' : '';
  switch (kind) {
    case 'BrowserNavigateAction':
      return `Open ${oneLine(text('url') ?? 'a page', 200)}${inNewTab}`;
    case 'BrowserClickAction':
      return `Click ${element}${inNewTab}`;
    case 'BrowserTypeAction':
      return `Type “${oneLine(text('text') ?? '', 120)}” into ${element}`;
    case 'BrowserGetStateAction':
      return action['include_screenshot'] === true ? 'Look at the page (screenshot)' : 'Read the page';
    case 'BrowserGetContentAction':
      return 'Read the page as text';
    case 'BrowserScrollAction':
      return `Scroll ${text('direction') === 'up' ? 'up' : 'down'}`;
    case 'BrowserGoBackAction':
      return 'Go back';
    case 'BrowserListTabsAction':
      return 'List the tabs';
    case 'BrowserSwitchTabAction':
      return `Switch to tab ${oneLine(text('tab_id') ?? '', 40)}`.trimEnd();
    case 'BrowserCloseTabAction':
      return `Close tab ${oneLine(text('tab_id') ?? '', 40)}`.trimEnd();
    case 'BrowserGetStorageAction':
      return 'Read the cookies and storage';
    case 'BrowserSetStorageAction':
      return 'Set the cookies and storage';
    case 'BrowserStartRecordingAction':
      return 'Start recording the session';
    case 'BrowserStopRecordingAction':
      return 'Stop recording the session';
    default:
      return undefined;
  }
}

function oneLine(value: string, max: number): string {
  const line = value.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
