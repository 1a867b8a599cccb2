import { Injectable } from 'mcp-reflect';

export interface Coordinates {
  lat: number;
  lon: number;
}

// A Map, not a plain object: a lookup of '__proto__' or 'constructor' must find nothing.
const KNOWN = new Map<string, Coordinates>(Object.entries({
  paris: { lat: 48.85, lon: 2.35 },
  london: { lat: 51.51, lon: -0.13 },
  tokyo: { lat: 35.68, lon: 139.69 },
  reykjavik: { lat: 64.15, lon: -21.94 },
}));

@Injectable()
export class GeoService {
  locate(city: string): Coordinates | undefined {
    return KNOWN.get(city.trim().toLowerCase());
  }
}
