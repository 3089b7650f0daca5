// `npm run package:bridge`: builds edge-bridge/dist/deposito-edge-bridge_<version>_<arch>.deb for this
// machine's architecture (see edge-bridge/README.md, "Building the package").
import { buildBridgePackage } from './package-bridge/debian-package';

const built = await buildBridgePackage();
console.log(`${built.file}\n  ${built.arch}, Depends: nodejs ${built.nodeMajor}.x`);
