/**
 * antd-mobile's imperative APIs (Toast, Dialog) need a React 19 renderer (GOTCHAS.md). Every
 * module that uses one imports this first; it runs once.
 */
import { unstableSetRender } from 'antd-mobile';
import { createRoot, type Root } from 'react-dom/client';

unstableSetRender((node, container) => {
  const host = container as Element & { _root?: Root }; // antd-mobile's React 19 guide keeps the root on the container
  host._root ??= createRoot(host);
  host._root.render(node);
  return async () => {
    await Promise.resolve();
    host._root?.unmount();
    delete host._root;
  };
});
