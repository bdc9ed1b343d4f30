/** A place on a board the player can click (or focus and press Enter) to pick a move. */
import type { ComponentChildren } from 'preact';

export interface Picking {
  reachable: Set<string>;
  selection: string[];
  pick(key: string): void;
}

export function Target(props: {
  picking: Picking | undefined;
  k: string;
  label: string;
  children: ComponentChildren;
}) {
  const { picking, k, label } = props;
  if (!picking || !picking.reachable.has(k)) return <g>{props.children}</g>;
  const chosen = picking.selection.includes(k);
  return (
    <g
      class={chosen ? 'target chosen' : 'target'}
      role="button"
      tabIndex={0}
      aria-label={label}
      aria-pressed={chosen}
      data-key={k}
      onClick={() => picking.pick(k)}
      onKeyDown={(e) => {
        if (e.key === 'Enter' || e.key === ' ') {
          e.preventDefault();
          picking.pick(k);
        }
      }}
    >
      <title>{label}</title>
      {props.children}
    </g>
  );
}
