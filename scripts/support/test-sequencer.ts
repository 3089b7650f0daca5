import { BaseSequencer, type TestSequencerConstructor, type TestSpecification } from 'vitest/node';

/**
 * Vitest's order (group, then projects by name, then the longest or largest files first), except
 * that within a group the projects come in the order given: the small ones with a few long files
 * first, the cloud with its ninety (many of them short) last, so the run does not end on a few long
 * files with a worker idle beside them (issue 22, the unit suite's time). A worker keeps to one
 * project at a time (it would have to import another's modules anew), so projects stay together.
 */
export function projectOrderSequencer(order: readonly string[]): TestSequencerConstructor {
  const rank = (name: string) => {
    const index = order.indexOf(name);
    return index === -1 ? order.length : index;
  };
  return class ProjectOrderSequencer extends BaseSequencer {
    override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
      const sorted = await super.sort(files);
      // Array.prototype.sort is stable: within a project, Vitest's order stays.
      return sorted.sort(
        (a, b) =>
          a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder ||
          rank(a.project.name) - rank(b.project.name),
      );
    }
  };
}
