/** core-js's entry that installs Uint8Array.fromBase64 (the envelope test's standard decoder); it exports nothing. */
declare module 'core-js/actual/typed-array/from-base64.js';
