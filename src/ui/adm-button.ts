/**
 * antd-mobile's Button by its own module path, with the library's global styles (its CSS
 * variables) that the package's index would have loaded. Importing `Button` from 'antd-mobile'
 * itself ties every module the index re-exports to the importer when the build groups the login
 * page's code into one chunk (vite.config.ts): the toast's animation library came along, and the
 * login chunk weighed 36 KB gzipped instead of 7.
 */
import 'antd-mobile/es/global';

export { default as Button } from 'antd-mobile/es/components/button';
