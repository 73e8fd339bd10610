// What a tree row and a status bar item are drawn with: plain values, read back by the tests.
import type * as vscode from 'vscode';
import type { Uri } from './uri';

export enum TreeItemCollapsibleState {
  None = 0,
  Collapsed = 1,
  Expanded = 2,
}

export class ThemeColor implements vscode.ThemeColor {
  constructor(readonly id: string) {}
}

export class ThemeIcon implements vscode.ThemeIcon {
  static readonly File = new ThemeIcon('file');
  static readonly Folder = new ThemeIcon('folder');

  constructor(
    readonly id: string,
    readonly color?: ThemeColor,
  ) {}
}

export class TreeItem implements vscode.TreeItem {
  label?: string | vscode.TreeItemLabel;
  resourceUri?: Uri;
  id?: string;
  iconPath?: vscode.TreeItem['iconPath'];
  description?: string | boolean;
  tooltip?: string | vscode.MarkdownString;
  command?: vscode.Command;
  contextValue?: string;
  accessibilityInformation?: vscode.AccessibilityInformation;
  checkboxState?: vscode.TreeItem['checkboxState'];

  constructor(
    labelOrUri: string | vscode.TreeItemLabel | Uri,
    public collapsibleState: TreeItemCollapsibleState = TreeItemCollapsibleState.None,
  ) {
    if (typeof labelOrUri === 'string' || 'label' in labelOrUri) this.label = labelOrUri;
    else this.resourceUri = labelOrUri;
  }
}

export class MarkdownString implements vscode.MarkdownString {
  isTrusted?: boolean;
  supportHtml?: boolean;
  baseUri?: vscode.Uri;

  constructor(
    public value = '',
    public supportThemeIcons = false,
  ) {}

  /** Text shown as written: VS Code escapes markdown's tokens (and `$(` when icons are on). */
  appendText(value: string): MarkdownString {
    const icons = this.supportThemeIcons
      ? value.replace(/\$\([a-z0-9-]+?(?:~[a-z0-9-]*?)?\)/gi, '\\$&')
      : value;
    this.value += icons
      .replace(/[\\`*_{}[\]()#+\-!~]/g, '\\$&')
      .replace(/([ \t]+)/g, (spaces: string) => '&nbsp;'.repeat(spaces.length))
      .replace(/>/gm, '\\>')
      .replace(/\n/g, '\n\n');
    return this;
  }

  appendMarkdown(value: string): MarkdownString {
    this.value += value;
    return this;
  }

  appendCodeblock(code: string, language = ''): MarkdownString {
    this.value += `\n\`\`\`${language}\n${code}\n\`\`\`\n`;
    return this;
  }
}
