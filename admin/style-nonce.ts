/**
 * Gives this page's style nonce to `<style>` tags added to <head> without one. antd passes the
 * nonce to the styles it writes (ConfigProvider `csp`), but @rc-component/util's scrollbar
 * measure (every antd Table) adds a `<style>` without it, which the policy then refuses
 * (react-component/util#613, ant-design/ant-design#58150, open). This grants nothing a script
 * of this origin could not do anyway: scripts are 'self' only, and any of them can read the
 * nonce from the page.
 */
export function nonceUnmarkedStyles(nonce: string): void {
  const head = document.head;
  const mark = (node: Node) => {
    if (node instanceof HTMLStyleElement && !node.nonce) node.nonce = nonce;
  };
  const appendChild = head.appendChild.bind(head);
  const insertBefore = head.insertBefore.bind(head);
  head.appendChild = <T extends Node>(node: T): T => {
    mark(node);
    return appendChild(node);
  };
  head.insertBefore = <T extends Node>(node: T, child: Node | null): T => {
    mark(node);
    return insertBefore(node, child);
  };
}
