/**
 * A card of entries that each open a page of the app (the spec's list of links on Settings and
 * Assets): the label is a locale key; a page not built yet says "not yet open" (useGo).
 */
import type { ParseKeys } from 'i18next';
import { useTranslation } from 'react-i18next';
import { useGo } from '../app/navigation.js';

export function LinkList({ entries }: { entries: ReadonlyArray<readonly [label: ParseKeys, path: string]> }) {
  const { t } = useTranslation();
  const go = useGo();
  return (
    <ul className="list card">
      {entries.map(([label, path]) => (
        <li key={path}>
          <button type="button" className="list-link" onClick={() => go(path)}>
            {t(label)}
          </button>
        </li>
      ))}
    </ul>
  );
}
