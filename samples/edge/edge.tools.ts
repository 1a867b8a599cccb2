import { Ctx, Injectable, Param, Tool, type Context } from 'mcp-reflect';

/**
 * Tools for an edge runtime. Bundlers there (esbuild in wrangler, Bun's, Vite's) emit no decorator metadata:
 * the parameter types come from mcp-metadata.ts, which `mcp-reflect generate` writes from these signatures.
 */
@Injectable()
export class EdgeTools {
  /**
   * Add two numbers
   * @param a the first addend
   * @param b the second addend
   */
  @Tool({ annotations: { readOnlyHint: true } })
  add(@Param() a: number, @Param() b: number): number {
    return a + b;
  }

  /**
   * Greet someone
   * @param name who to greet
   * @param style how
   */
  @Tool()
  async greet(@Param() name: string, @Param() style: 'plain' | 'excited' = 'plain', @Ctx() ctx?: Context): Promise<string> {
    await ctx?.reportProgress(1, 1, `greeting ${name}`);
    return style === 'excited' ? `Hello, ${name}!` : `Hello, ${name}.`;
  }
}
