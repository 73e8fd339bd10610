// Installs an unpacked extension folder into a code-server --extensions-dir as an ordinary (not
// development) extension: copied under `<publisher>.<name>-<version>/` and listed in extensions.json,
// the manifest VS Code reads the installed extensions from. Used before the workbench first connects.
import * as fs from 'node:fs';
import * as path from 'node:path';

interface Manifest {
  publisher: string;
  name: string;
  version: string;
}

export function installUnpackedExtension(extensionsDir: string, extensionFolder: string): string {
  const manifest = JSON.parse(
    fs.readFileSync(path.join(extensionFolder, 'package.json'), 'utf8'),
  ) as Manifest;
  const id = `${manifest.publisher}.${manifest.name}`;
  const relativeLocation = `${id}-${manifest.version}`;
  const target = path.join(extensionsDir, relativeLocation);
  fs.rmSync(target, { recursive: true, force: true });
  fs.cpSync(extensionFolder, target, { recursive: true });
  const listFile = path.join(extensionsDir, 'extensions.json');
  const listed = fs.existsSync(listFile) ? (JSON.parse(fs.readFileSync(listFile, 'utf8')) as unknown[]) : [];
  listed.push({
    identifier: { id },
    version: manifest.version,
    location: { $mid: 1, path: target, scheme: 'file' },
    relativeLocation,
    metadata: { installedTimestamp: Date.now(), source: 'vsix' },
  });
  fs.writeFileSync(listFile, JSON.stringify(listed));
  return id;
}
