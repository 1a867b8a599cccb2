import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { McpModule, McpService } from 'mcp-reflect/nest';
import { createTestClient } from 'mcp-reflect/testing';
import { metadata } from '../../samples/typed/mcp-metadata';
import { TripTools } from '../../samples/typed/trip.tools';

/** The types `mcp-reflect generate` wrote serve inside Nest too: the same schemas as the standalone typed sample. */
@Module({ imports: [McpModule.forRoot({ name: 'typed-in-nest', version: '1.0.0', http: false, metadata })], providers: [TripTools] })
class AppModule {}

describe('generated metadata inside a Nest application', () => {
  it('serves the schemas of the generated file (literal unions with defaults, optionals, Dates)', async () => {
    const context = await NestFactory.createApplicationContext(AppModule, { logger: false });
    const client = await createTestClient(context.get(McpService).application);
    try {
      const plan = (await client.listTools()).tools.find((t) => t.name === 'plan');
      expect(plan?.description).toBe('Plan a trip through several cities');
      expect(plan?.inputSchema).toMatchObject({
        properties: { transport: { enum: expect.arrayContaining(['train']), default: 'train' } },
        required: ['stops'],
      });
      const answer = await client.callTool({ name: 'plan', arguments: { stops: [{ city: 'Lyon', nights: 2, arrival: '2026-05-01T12:00:00Z' }] } });
      expect((answer.content as { text: string }[])[0].text).toBe('Lyon by train: 2 night(s) from 2026-05-01');
    } finally {
      await client.close();
      await context.close();
    }
  });
});
