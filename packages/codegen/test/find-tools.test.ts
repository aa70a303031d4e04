import { generate } from '../src';
import { makeTempProject } from './support/fixtures';

// The scan reads a file's statements for its classes and searches deeper only where a class is
// declared below the top level; both must find every @Tool method, in source order.

const TOP = `import { Tool } from '@toolwright/core';
export class First {
  /** Reads the first thing. Use it to read. It does not write. */
  @Tool() first(): string { return ''; }
}
export class Second {
  /** Reads the second thing. Use it to read. It does not write. */
  @Tool() second(): string { return ''; }
}
`;

const NESTED = `import { Tool } from '@toolwright/core';
export class Top {
  /** Reads at the top. Use it to read. It does not write. */
  @Tool() top(): string { return ''; }
}
export namespace Space {
  export class Inner {
    /** Reads in a namespace. Use it to read. It does not write. */
    @Tool() inner(): string { return ''; }
  }
}
export function make() {
  class Local {
    /** Reads in a function. Use it to read. It does not write. */
    @Tool() local(): string { return ''; }
  }
  return Local;
}
export class Host {
  /** Reads from a host. Use it to read. It does not write. */
  @Tool() host(): string {
    class InMethod {
      /** Reads in a method. Use it to read. It does not write. */
      @Tool() inMethod(): string { return ''; }
    }
    return String(InMethod);
  }
}
export class Last {
  /** Reads at the end. Use it to read. It does not write. */
  @Tool() last(): string { return ''; }
}
`;

// The word "class" more often than the file has classes, none of them nested: every class is found.
const WORDY = `import { Tool } from '@toolwright/core';
import type { ValidationError } from 'class-validator';
/** The class of tools that read; each class below is one catalog. */
export class Wordy {
  /** Reads a class of things. Use it to read. It does not write. */
  @Tool() wordy(): string { return typeof ({} as ValidationError); }
}
`;

describe('finding @Tool methods', () => {
  const project = makeTempProject({ 'src/a.tools.ts': TOP, 'src/b.tools.ts': NESTED, 'src/c.tools.ts': WORDY });
  afterAll(() => project.cleanup());

  it('finds the classes of every file at any depth, in file and source order', () => {
    const result = generate({ project: project.tsconfig, write: false });
    expect(result.tools.map((t) => t.name)).toEqual(['first', 'second', 'top', 'inner', 'local', 'host', 'in_method', 'last', 'wordy']);
  });

  it('reports a tool class the generated module cannot import by name, with where to declare it', () => {
    const defaults = makeTempProject({
      'src/d.tools.ts': `import { Tool } from '@toolwright/core';\nexport default class Defaulted {\n  /** Reads by default. Use it to read. It does not write. */\n  @Tool() defaulted(): string { return ''; }\n}\n`,
      // Exported under its own name as well as another: importable, no diagnostic.
      'src/e.tools.ts': `import { Tool } from '@toolwright/core';\nclass Twice {\n  /** Reads twice. Use it to read. It does not write. */\n  @Tool() twice(): string { return ''; }\n}\nexport { Twice, Twice as Again };\n`,
      'src/f.tools.ts': `import { Tool } from '@toolwright/core';\nclass Renamed {\n  /** Reads renamed. Use it to read. It does not write. */\n  @Tool() renamed(): string { return ''; }\n}\nexport { Renamed as Other };\n`,
    });
    try {
      const nested = generate({ project: project.tsconfig, write: false }).diagnostics.map((d) => d.message);
      const inside = (name: string) => `class ${name} is declared inside a function or namespace, where the generated module cannot import it; declare it at the top level of its file and export it.`;
      expect(nested).toEqual([inside('Inner'), inside('Local'), inside('InMethod')]);
      expect(generate({ project: defaults.tsconfig, write: false }).diagnostics.map((d) => d.message)).toEqual([
        "class Defaulted is its file's default export, and the generated module imports classes by name; export it by name (export class Defaulted).",
        'class Renamed is exported only under another name, and the generated module imports classes by the name they are declared with; export it as Renamed too (export { Renamed }).',
      ]);
    } finally {
      defaults.cleanup();
    }
  });
});
