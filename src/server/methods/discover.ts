import { MODERN_VERSIONS } from '../../protocol/versions.js';
import type { MethodSpec, Result } from './types.js';

export const discoverMethods: Record<string, MethodSpec> = {
  'server/discover': {
    run: async (_params, { core }) => {
      const result: Result = {
        supportedVersions: [...MODERN_VERSIONS],
        capabilities: core.capabilities(),
      };
      if (core.options.instructions !== undefined)
        result['instructions'] = core.options.instructions;
      return result;
    },
  },
};
