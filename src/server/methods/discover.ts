import { MODERN_VERSIONS } from '../../protocol/versions.js';
import type { MethodSpec, Result } from './types.js';

export const discoverMethods: Record<string, MethodSpec> = {
  'server/discover': {
    cache: 'list',
    run: async (_params, { server }) => {
      const result: Result = {
        supportedVersions: [...MODERN_VERSIONS],
        capabilities: server.capabilities(),
      };
      if (server.options.instructions !== undefined)
        result['instructions'] = server.options.instructions;
      return result;
    },
  },
};
