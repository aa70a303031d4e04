import { Input, Param, Tool, ToolGroup } from '@toolwright/core';
import { CategoryDto, FolderDto, OutlineDto, TeamDto, type Message } from './recursive.dto';

/** What each tool received, in call order. */
export const received: unknown[][] = [];

/** Tools whose inputs are recursive, each through another construct. */
@ToolGroup({ prefix: 'tree' })
export class TreeTools {
  /**
   * Files a category under the shop's tree.
   * Use it when the shop owner adds categories.
   * It does not move products.
   */
  @Tool()
  category(@Input() input: CategoryDto): string {
    received.push([input]);
    return 'ok';
  }

  /**
   * Creates a folder with its sub-folders.
   * Use it when the user lays out a drive.
   * It does not upload files.
   */
  @Tool()
  folder(@Input() input: FolderDto): string {
    received.push([input]);
    return 'ok';
  }

  /**
   * Saves an outline.
   * Use it when the user writes a plan.
   * It does not publish it.
   */
  @Tool()
  outline(@Input() input: OutlineDto): string {
    received.push([input]);
    return 'ok';
  }

  /**
   * Sets up a team and the teams its members lead.
   * Use it when the user describes an organisation.
   * It does not invite anyone.
   * @param team The team.
   * @param thread The discussion about it.
   */
  @Tool()
  organise(@Param() team: TeamDto, @Param() thread: Message): string {
    received.push([team, thread]);
    return 'ok';
  }
}
