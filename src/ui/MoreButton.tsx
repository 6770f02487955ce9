/** The "more" under a list read in pages: shows the next page of what is already on the device. */
import type { ReactNode } from 'react';

export function MoreButton({ onClick, children }: { onClick: () => void; children: ReactNode }) {
  return (
    <button type="button" className="link-button records__more" onClick={onClick}>
      {children}
    </button>
  );
}
