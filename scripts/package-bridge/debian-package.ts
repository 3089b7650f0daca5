// Builds deposito-edge-bridge_<version>_<arch>.deb with dpkg-deb alone: the built bridge in
// /usr/lib/deposito-edge-bridge, /usr/bin/edge-bridge, the systemd unit (installed, not started),
// the guide, and maintainer scripts that create the `deposito` user, /etc/deposito and
// /var/lib/deposito-bridge. The compiled SQLite module is the one in node_modules, so the package is
// for the architecture and Node major this machine has (build on an arm64 box for arm64).
import { execFileSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../support/repo-root';
import { BRIDGE_DIST, NODE_OPTIONS_FOR_SITE, buildBridge } from './build-bridge';

export const PACKAGE_NAME = 'deposito-edge-bridge';
const HERE = path.join(REPO_ROOT, 'scripts', 'package-bridge', 'debian');

/** ELF e_machine values of the architectures a site box may have, by Debian architecture name. */
const ELF_MACHINE: Record<string, number> = { amd64: 0x3e, arm64: 0xb7, armhf: 0x28, i386: 0x03 };

export interface BridgePackage {
  file: string;
  version: string;
  arch: string;
  /** The Node.js major the SQLite module was compiled for (the package depends on it). */
  nodeMajor: number;
}

/** The Debian architecture a compiled module is for, from its ELF header. */
export function elfArchitecture(file: string): string {
  const header = readFileSync(file).subarray(0, 20);
  if (header.readUInt32BE(0) !== 0x7f454c46) throw new Error(`${file} is not an ELF file`);
  const machine = header.readUInt16LE(18);
  const arch = Object.entries(ELF_MACHINE).find(([, value]) => value === machine)?.[0];
  if (!arch) throw new Error(`${file}: unsupported ELF machine 0x${machine.toString(16)}`);
  return arch;
}

function directorySizeKiB(dir: string): number {
  const output = execFileSync('du', ['-sk', '--apparent-size', dir], { encoding: 'utf8' });
  return Number(output.split(/\s/)[0]);
}

export async function buildBridgePackage(options: { outDir?: string } = {}): Promise<BridgePackage> {
  const outDir = options.outDir ?? BRIDGE_DIST;
  const stage = path.join(BRIDGE_DIST, 'deb-root');
  rmSync(stage, { recursive: true, force: true });
  const built = await buildBridge(path.join(stage, 'usr', 'lib', PACKAGE_NAME));
  // The module in node_modules was compiled here, for this machine: refuse to label it otherwise.
  const arch = elfArchitecture(built.nativeModule);
  const nodeMajor = Number(process.versions.node.split('.')[0]);

  const install = (from: string, to: string, mode: number) => {
    const target = path.join(stage, to);
    mkdirSync(path.dirname(target), { recursive: true });
    cpSync(from, target);
    chmodSync(target, mode);
  };
  install(path.join(HERE, 'edge-bridge'), 'usr/bin/edge-bridge', 0o755);
  const wrapper = path.join(stage, 'usr', 'bin', 'edge-bridge');
  writeFileSync(
    wrapper,
    readFileSync(wrapper, 'utf8').replaceAll('@NODE_OPTIONS@', NODE_OPTIONS_FOR_SITE.join(' ')),
  );
  install(
    path.join(REPO_ROOT, 'edge-bridge', 'deploy', 'edge-bridge.service'),
    'usr/lib/systemd/system/edge-bridge.service',
    0o644,
  );
  install(path.join(REPO_ROOT, 'edge-bridge', 'README.md'), `usr/share/doc/${PACKAGE_NAME}/README.md`, 0o644);
  for (const script of ['postinst', 'prerm', 'postrm'])
    install(path.join(HERE, script), `DEBIAN/${script}`, 0o755);

  const control = [
    `Package: ${PACKAGE_NAME}`,
    `Version: ${built.bridgeVersion}`,
    `Architecture: ${arch}`,
    'Maintainer: Deposito <ops@deposito.invalid>',
    // The SQLite module is compiled for one Node.js ABI: the major it was built with.
    `Depends: nodejs (>= ${nodeMajor}), nodejs (<< ${nodeMajor + 1}), passwd, util-linux`,
    'Section: misc',
    'Priority: optional',
    `Installed-Size: ${directorySizeKiB(stage)}`,
    'Homepage: https://deposito.invalid/',
    `Description: Deposito edge bridge (bridge ${built.bridgeVersion}, protocol ${built.protocolVersion})`,
    " Links a site's locker controller to the Deposito cloud and buffers offline.",
    ' Provides the edge-bridge command and the edge-bridge systemd unit (not started on install).',
    '',
  ].join('\n');
  writeFileSync(path.join(stage, 'DEBIAN', 'control'), control);

  mkdirSync(outDir, { recursive: true });
  const file = path.join(outDir, `${PACKAGE_NAME}_${built.bridgeVersion}_${arch}.deb`);
  execFileSync('dpkg-deb', ['--root-owner-group', '-Zxz', '--build', stage, file], { stdio: 'pipe' });
  rmSync(stage, { recursive: true, force: true });
  statSync(file);
  return { file, version: built.bridgeVersion, arch, nodeMajor };
}
