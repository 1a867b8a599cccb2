import { Injectable, Param, Tool, ToolError } from 'mcp-reflect';

export enum Rounding {
  Floor = 'floor',
  Ceil = 'ceil',
  Round = 'round',
}

/** Primitive parameters only: every schema here comes from the parameter types and @Param options. */
@Injectable()
export class CalculatorTools {
  @Tool({ description: 'Add two numbers', annotations: { readOnlyHint: true } })
  add(@Param() a: number, @Param('b', { description: 'second addend' }) b: number): number {
    return a + b;
  }

  @Tool({ description: 'Divide a by b' })
  divide(@Param() a: number, @Param() b: number): number {
    if (b === 0) throw new ToolError('Cannot divide by zero: pass a non-zero b.');
    return a / b;
  }

  @Tool({ description: 'Raise a base to an integer power' })
  power(@Param() base: number, @Param('exponent', { type: 'integer', description: 'whole exponent' }) exponent: number): number {
    return base ** exponent;
  }

  @Tool({ name: 'round', description: 'Round a number with the chosen mode' })
  roundNumber(
    @Param() value: number,
    @Param('mode', { enum: Rounding, default: Rounding.Round, description: 'rounding mode' }) mode: Rounding,
  ): number {
    return Math[mode](value);
  }

  @Tool({ description: 'Sum a list of numbers', output: Number })
  sum(@Param('values', { type: [Number], description: 'the numbers to add' }) values: number[]): number {
    return values.reduce((total, v) => total + v, 0);
  }

  @Tool({ description: 'Say whether a number is even' })
  isEven(@Param('n', { type: 'integer' }) n: number, @Param('explain', { optional: true }) explain?: boolean): string {
    const even = n % 2 === 0;
    return explain ? `${n} is ${even ? 'even' : 'odd'} because ${n} mod 2 = ${Math.abs(n % 2)}` : String(even);
  }
}
