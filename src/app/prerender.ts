/**
 * The app's side of the login page drawn into a first visit's HTML (contract/first-page.ts): it
 * stays on screen until the app's own first page is, then gives way to it, handing over what the
 * visitor did meanwhile (what was typed or chosen, the focus, a submit). A drawn page in another
 * language than the app's goes at once; and the app keeps the signed-in mark the gate reads.
 */
import {
  PRERENDER_ID,
  PRERENDERED_CLASS,
  SIGNED_IN_KEY,
  SUBMITTED_ATTRIBUTE,
} from '../../contract/first-page.js';
import { ROUTES } from './paths.js';

const FIELDS = 'input, select, textarea';

type Field = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

/** Read once, as the app starts: whether this document opened on the drawn page. */
const openedOnDrawnPage =
  typeof document !== 'undefined' && document.documentElement.classList.contains(PRERENDERED_CLASS);

/**
 * The launch rule's start (spec section 4) for a document the drawn login page opened: login,
 * wherever its links took the visitor before the app arrived; undefined for any other document.
 */
export function drawnPageLaunch(): string | undefined {
  return openedOnDrawnPage ? ROUTES.login : undefined;
}

function drawnPage(): HTMLElement | null {
  return typeof document === 'undefined' ? null : document.getElementById(PRERENDER_ID);
}

function remove(drawn: HTMLElement): void {
  drawn.remove();
  document.documentElement.classList.remove(PRERENDERED_CLASS);
}

/** Drops the drawn page when it is in another language than `locale`: the app's own page follows. */
export function keepPrerenderIn(locale: string): void {
  const drawn = drawnPage();
  if (drawn && drawn.dataset['locale'] !== locale) remove(drawn);
}

const checkable = (field: Field): field is HTMLInputElement =>
  field instanceof HTMLInputElement && (field.type === 'checkbox' || field.type === 'radio');

function changed(field: Field): boolean {
  if (field instanceof HTMLSelectElement)
    return [...field.options].some((option) => option.selected !== option.defaultSelected);
  if (checkable(field)) return field.checked !== field.defaultChecked;
  return field.value !== field.defaultValue;
}

/**
 * Gives `target` the drawn field's value as typing would: through the element's own value setter
 * (React tracks values it set itself and ignores a plain assignment) and the event React listens to.
 */
function handOver(from: Field, target: Field): void {
  if (from.tagName !== target.tagName || ('type' in from && from.type !== target.type)) return;
  if (checkable(target)) {
    if (target.checked !== (from as HTMLInputElement).checked) target.click();
    return;
  }
  Object.getOwnPropertyDescriptor(Object.getPrototypeOf(target) as object, 'value')?.set?.call(
    target,
    from.value,
  );
  target.dispatchEvent(
    new Event(target instanceof HTMLSelectElement ? 'change' : 'input', { bubbles: true }),
  );
}

/**
 * The app's first page is committed: the drawn page goes at once (in the commit, so the page is
 * never on screen, nor found by a query, twice). Then, when the app shows the same page, the fields
 * the visitor changed, the focus and a held submit carry over, field by field in order: in a task
 * after the commit, where the page's own handlers take the events as typing.
 */
export function takeOverPrerender(): void {
  const drawn = drawnPage();
  if (!drawn) return;
  const root = document.getElementById('root');
  const drawnFields = [...drawn.querySelectorAll<Field>(FIELDS)];
  const appFields = root ? [...root.querySelectorAll<Field>(FIELDS)] : [];
  const focused = drawnFields.findIndex((field) => field === document.activeElement);
  const submitted = [...drawn.querySelectorAll('form')].findIndex((form) =>
    form.hasAttribute(SUBMITTED_ATTRIBUTE),
  );
  const samePage = drawnFields.length === appFields.length; // else another page: nothing to hand over
  // The app's page shows, then takes the focus before the drawn one goes, all in the commit: keys
  // on their way land in the app's field rather than nowhere.
  document.documentElement.classList.remove(PRERENDERED_CLASS);
  if (samePage) appFields[focused]?.focus();
  drawn.remove(); // a removed field keeps its value
  if (!samePage) return;
  setTimeout(() => {
    drawnFields.forEach((field, index) => {
      const target = appFields[index];
      if (target?.isConnected && changed(field)) handOver(field, target);
    });
    // Submitted once the page has drawn the handed values: its submit handler reads them from state.
    const form = submitted >= 0 ? root?.querySelectorAll('form')[submitted] : undefined;
    if (form) setTimeout(() => form.requestSubmit(), 0);
  }, 0);
}

/** Kept by the shell whenever the stored session changes; storage that refuses is only a lost hint. */
export function rememberSignedIn(signedIn: boolean): void {
  try {
    if (signedIn) localStorage.setItem(SIGNED_IN_KEY, '1');
    else localStorage.removeItem(SIGNED_IN_KEY);
  } catch {
    // storage that refuses (a private mode, a full quota) loses the hint: the gate may then show the
    // drawn login page for a moment to a signed-in visitor no service worker serves
  }
}
