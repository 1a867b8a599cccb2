import { Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { McpModule } from 'mcp-reflect/nest';
import { NotesController } from './notes.controller';
import { NotesService } from './notes.service';
import { NotesTools } from './notes.tools';
import { RolesGuard } from './roles.guard';

@Module({
  imports: [
    ConfigModule.forRoot({ isGlobal: true, ignoreEnvFile: true, load: [() => ({ notes: { max: Number(process.env.NOTES_MAX ?? 100) } })] }),
    McpModule.forRoot({ name: 'nest-notes', version: '1.0.0', instructions: 'A notebook shared with a REST API.' }),
  ],
  controllers: [NotesController],
  providers: [NotesService, NotesTools, RolesGuard],
})
export class AppModule {}
