import { Command } from 'commander';

export function register(_program: Command): void {
  // Sub-commands of this group are registered here.
}
