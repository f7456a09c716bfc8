import packageJson from '../../../package.json' with { type: 'json' };

/** BATON_VERSION is package.json's version, bundled into the server at build time. */
export const BATON_VERSION: string = packageJson.version;
