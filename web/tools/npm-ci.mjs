// Installs the page's npm packages, exactly as package-lock.json pins them,
// into a folder of the build directory (never into the source tree).
// Usage: node npm-ci.mjs NPM DIR package.json package-lock.json STAMP
//
// It runs `npm ci` only when the lock file differs from the one installed
// last time, so a reconfigured build does not download anything again; npm's
// own cache makes a clean build work offline once the packages were fetched.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const [npm, dir, pkg, lock, stamp] = process.argv.slice(2);
mkdirSync(dir, { recursive: true });
const want = readFileSync(lock, 'utf8');
const installed = join(dir, 'installed-lock.json');
if (!existsSync(installed) || readFileSync(installed, 'utf8') !== want
    || !existsSync(join(dir, 'node_modules'))) {
  copyFileSync(pkg, join(dir, 'package.json'));
  copyFileSync(lock, join(dir, 'package-lock.json'));
  const r = spawnSync(npm, ['ci', '--prefer-offline', '--no-audit', '--no-fund',
                            '--loglevel=error'],
                      { cwd: dir, stdio: 'inherit' });
  if (r.status !== 0) {
    console.error(`npm ci failed in ${dir} (status ${r.status}); is the npm registry reachable?`);
    process.exit(1);
  }
  writeFileSync(installed, want);
}
writeFileSync(stamp, '');
