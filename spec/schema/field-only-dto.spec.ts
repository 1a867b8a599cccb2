import { execFileSync } from 'node:child_process';
import path from 'node:path';

/** In a process of its own: whether class-validator gets loaded is process-wide state. */
describe('a DTO declared with @Field() alone', () => {
  it('is served (schema, validation, instances) without loading class-validator', () => {
    const root = path.resolve(__dirname, '..', '..');
    const output = execFileSync(
      process.execPath,
      ['-r', path.join(root, 'spec', 'support', 'register.js'), path.join(root, 'spec', 'fixtures', 'field-only-app.ts')],
      { cwd: root, encoding: 'utf8' },
    );
    expect(JSON.parse(output)).toEqual({
      ok: [{ type: 'text', text: 'Dune x2 by Herbert (true)' }],
      noted: [{ type: 'text', text: 'Dune x1 (signed) by ' }],
      required: ['title', 'copies', 'authors'],
      bad: [
        {
          type: 'text',
          text: 'Invalid arguments for tool book: title: must be at least 1 character long; copies: must not be greater than 10',
        },
      ],
      classValidatorLoaded: false,
    });
  }, 30_000);
});
