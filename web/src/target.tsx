/** A place on a board the player can click (or focus and press Enter) to pick a move. */
import type { ComponentChildren } from 'preact';

export interface Picking {
  reachable: Set<string>;
  selection: string[];
  pick(key: string): void;
}

/** `html`: the target sits in HTML (a card beside the board), not in the SVG drawing. */
export function Target(props: {
  picking: Picking | undefined;
  k: string;
  label: string;
  html?: boolean;
  children: ComponentChildren;
}) {
  const { picking, k, label, html } = props;
  if (!picking?.reachable.has(k))
    return html ? <span>{props.children}</span> : <g>{props.children}</g>;
  const chosen = picking.selection.includes(k);
  const common = {
    class: chosen ? 'target chosen' : 'target',
    role: 'button' as const,
    tabindex: 0,
    'aria-label': label,
    'aria-pressed': chosen,
    'data-key': k,
    onClick: () => picking.pick(k),
    onKeyDown: (e: KeyboardEvent) => {
      if (e.key === 'Enter' || e.key === ' ') {
        e.preventDefault();
        picking.pick(k);
      }
    },
  };
  if (html)
    return (
      <span {...common} title={label}>
        {props.children}
      </span>
    );
  return (
    <g {...common}>
      <title>{label}</title>
      {props.children}
    </g>
  );
}
