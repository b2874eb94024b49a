/**
 * External tools the tests run. Their locations come from one place, test/tools.sh (under DSYNC_CACHE), which
 * test/run.sh sources; test/setup.sh installs them there.
 */
import { existsSync } from 'node:fs';

export function toolBinary(
  variable: 'SCIM2_BIN' | 'SCIM_SANITY_BIN' | 'SCHEMATHESIS_BIN' | 'OPENAPI_GENERATOR_JAR' | 'CLIENTS_PYTHON_BIN',
): string {
  const path = process.env[variable];
  if (!path)
    throw new Error(
      `${variable} is not set: run the tests with \`npm test\` or \`bash test/run.sh\` (they read test/tools.sh)`,
    );
  if (!existsSync(path))
    throw new Error(`${variable}=${path} does not exist: run \`bash test/setup.sh\` to install it`);
  return path;
}
