/**
 * The draggable round customer-service button (spec section 2: kefu, also opened from a floating
 * button). Drag with a pointer, or move it with the arrow keys; a tap or Enter opens kefu. Its
 * name carries the count of support replies not yet read, which it also shows as a badge.
 */
import { lazy, Suspense, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router-dom';
import { useGo } from '../app/navigation.js';
import { ROUTES } from '../app/paths.js';
import { LineIcon } from './LineIcon.js';

const ServiceUnread = lazy(() => import('../features/chat/ServiceUnread.js'));

const SIZE = 52;
/** On the conversation itself the button stays above its composer (label, text box, buttons). */
const ABOVE_COMPOSER = 180;
const DRAG_THRESHOLD = 6;

export function ServiceButton() {
  const { t } = useTranslation();
  const go = useGo();
  const [position, setPosition] = useState({ right: 16, bottom: 96 });
  const inRoom = useLocation().pathname === ROUTES.chatRoom;
  const bottom = inRoom ? Math.max(position.bottom, ABOVE_COMPOSER) : position.bottom;
  const drag = useRef<{ x: number; y: number; right: number; bottom: number; moved: boolean } | null>(null);

  const clamp = (right: number, bottom: number) => ({
    right: Math.min(Math.max(right, 4), window.innerWidth - SIZE - 4),
    bottom: Math.min(Math.max(bottom, 4), window.innerHeight - SIZE - 4),
  });

  const onPointerDown = (event: PointerEvent<HTMLButtonElement>) => {
    drag.current = { x: event.clientX, y: event.clientY, ...position, moved: false };
    event.currentTarget.setPointerCapture(event.pointerId);
  };
  const onPointerMove = (event: PointerEvent<HTMLButtonElement>) => {
    const start = drag.current;
    if (!start) return;
    const dx = event.clientX - start.x;
    const dy = event.clientY - start.y;
    if (!start.moved && Math.hypot(dx, dy) < DRAG_THRESHOLD) return;
    start.moved = true;
    setPosition(clamp(start.right - dx, start.bottom - dy));
  };
  const onPointerUp = () => {
    const moved = drag.current?.moved ?? false;
    drag.current = null;
    if (!moved) go(ROUTES.kefu);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    const step = 16;
    const moves: Record<string, [number, number]> = {
      ArrowLeft: [step, 0],
      ArrowRight: [-step, 0],
      ArrowUp: [0, step],
      ArrowDown: [0, -step],
    };
    const move = moves[event.key];
    if (!move) return;
    event.preventDefault();
    setPosition((current) => clamp(current.right + move[0], current.bottom + move[1]));
  };

  return (
    <>
      <button
        type="button"
        className="service-button"
        style={{ right: position.right, bottom }}
        aria-describedby="service-button-hint"
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={() => (drag.current = null)}
        onKeyDown={onKeyDown}
        onClick={(event) => {
          if (event.detail === 0) go(ROUTES.kefu); // keyboard activation (Enter/Space) has no pointer events
        }}
      >
        <LineIcon
          size={26}
          path="M4 13v-1a8 8 0 0 1 16 0v1M4 13h3v5H5a1 1 0 0 1-1-1zm16 0h-3v5h2a1 1 0 0 0 1-1zM17 18c0 2-2 3-5 3"
          strokeWidth={1.8}
          linecap="round"
        />
        <Suspense fallback={<span className="visually-hidden">{t('common.customer_service')}</span>}>
          <ServiceUnread />
        </Suspense>
      </button>
      <span id="service-button-hint" className="visually-hidden">
        {t('common.customer_service_hint')}
      </span>
    </>
  );
}
