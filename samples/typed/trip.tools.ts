import { Injectable, Param, Tool } from 'mcp-reflect';
import { Budget, Stop, Transport } from './trip.types';

/**
 * Every schema here comes from the TypeScript types and the JSDoc: `mcp-reflect generate` writes them into
 * mcp-metadata.ts (no @Param() option restates a type). See docs/types.md.
 */
@Injectable()
export class TripTools {
  /**
   * Plan a trip through several cities
   * @param stops the cities, in order
   * @param transport how to travel between them
   * @param budget spending limit, if any
   */
  @Tool()
  plan(@Param() stops: Stop[], @Param() transport: Transport = 'train', @Param() budget?: Budget): string {
    const nights = stops.reduce((total, stop) => total + stop.nights, 0);
    const first = stops[0]?.arrival;
    const start = first ? ` from ${first.toISOString().slice(0, 10)}` : '';
    const cost = budget ? `, about ${nights * budget.perDay} ${budget.currency}` : '';
    return `${stops.map((s) => s.city).join(' → ')} by ${transport}: ${nights} night(s)${start}${cost}`;
  }

  /**
   * Rate the cities of a trip
   * @param scores a score from 0 to 10 per city
   * @param note an optional remark, or null
   */
  @Tool()
  rate(@Param() scores: Record<string, number>, @Param() note: string | null = null): string {
    const best = Object.entries(scores).sort((a, b) => b[1] - a[1])[0];
    return best ? `Best: ${best[0]} (${best[1]})${note ? ` — ${note}` : ''}` : 'Nothing rated';
  }
}
