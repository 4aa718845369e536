/** The engine version written into every replay; kept equal to package.json's version (a test checks). */
export const ENGINE_VERSION = '0.1.0';
