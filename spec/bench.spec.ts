import { execFileSync } from 'node:child_process';
import path from 'node:path';

/** The benchmarks must keep running; their numbers are reported in docs, never asserted here. */
describe('benchmarks', () => {
  it('runs the DI benchmark in quick mode', () => {
    const root = path.resolve(__dirname, '..');
    const output = execFileSync(
      process.execPath,
      ['-r', path.join(root, 'spec', 'support', 'register.js'), path.join(root, 'bench', 'di.bench.ts'), '--quick'],
      { cwd: root, encoding: 'utf8' },
    );
    expect(output).toMatch(/added by REQUEST\s+-?\d+\.\d+ µs\/call/);
    expect(output).toMatch(/Bootstrap, 200 providers in 20 modules: \d+\.\d ms/);
  }, 60_000);
});
