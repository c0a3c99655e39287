/**
 * The moves open to a record of a resource with state (the contract's `defineStates`), as buttons:
 * those its status allows and the caller may make, in declared order; a move that takes something
 * back is red. The detail drawer shows them as buttons, a table row as links.
 */
import { Button } from 'antd';
import type { Move } from '@cowork/contract';

export function MoveButtons<M extends string>({
  states,
  status,
  may,
  onMove,
  compact = false,
}: {
  states: { moves: Record<M, Move>; movesFrom: (status: string) => M[] };
  status: string;
  /** Whether the signed-in staff member holds this move's code. */
  may: (move: M) => boolean;
  onMove: (move: M) => void;
  /** Links in a table row rather than buttons. */
  compact?: boolean;
}) {
  const open = states.movesFrom(status).filter(may);
  return open.map((move, i) => {
    const { label, danger } = states.moves[move];
    return (
      <Button
        key={move}
        danger={danger}
        type={compact ? 'link' : i === 0 && !danger ? 'primary' : 'default'}
        size={compact ? 'small' : undefined}
        onClick={() => onMove(move)}
      >
        {label}
      </Button>
    );
  });
}
