// The bridge's and the protocol package's versions. The packaged build (scripts/package-bridge)
// writes them in at build time, as the package.json files are not shipped; from the sources they
// are read from the workspace.
import { createRequire } from 'node:module';
import { BRIDGE_PROTOCOL_VERSION } from '@deposito/protocol/bridge/v1';

declare const __DEPOSITO_BUILD_VERSIONS__: { bridge: string; protocol: string } | undefined;

function readVersions(): { bridge: string; protocol: string } {
  if (typeof __DEPOSITO_BUILD_VERSIONS__ !== 'undefined') return __DEPOSITO_BUILD_VERSIONS__;
  const require = createRequire(import.meta.url);
  const version = (file: string) => (require(file) as { version: string }).version;
  return { bridge: version('../package.json'), protocol: version('../../protocol/package.json') };
}

const versions = readVersions();

/** The edge-bridge package's version (sent in `hello`, shown by `status`). */
export const BRIDGE_VERSION: string = versions.bridge;
/** The @deposito/protocol package the bridge was built with. */
export const PROTOCOL_PACKAGE_VERSION: string = versions.protocol;

/** What `edge-bridge --version` prints. */
export function describeVersion(): string {
  return `edge-bridge ${BRIDGE_VERSION} (protocol ${PROTOCOL_PACKAGE_VERSION}, bridge wire protocol v${BRIDGE_PROTOCOL_VERSION})`;
}
