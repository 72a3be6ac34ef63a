type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue }

interface ToolArgsMap {
  /** Writes a note into the notebook and answers with it. */
  add_note: {
    text: string;
    /** A day, such as Tuesday. */
    due?: string;
  } & Record<string, JsonValue>;
  /** Archives a note. A note can be archived once; archiving it again fails. */
  archive_note: {
    id: string;
  } & Record<string, JsonValue>;
  /** Lists the notes whose text holds the given words, newest first. */
  find_notes: {
    words: string;
  } & Record<string, JsonValue>;
}

interface ToolOutputMap {
  add_note: {
    id: string;
    text: string;
    /** The day the note is due, if it has one. */
    due: string | null;
    archived: boolean;
  };
  archive_note: {
    id: string;
    text: string;
    /** The day the note is due, if it has one. */
    due: string | null;
    archived: boolean;
  };
  find_notes: ({
    id: string;
    text: string;
    /** The day the note is due, if it has one. */
    due: string | null;
    archived: boolean;
  })[];
}

type ToolName = keyof ToolOutputMap

declare class ToolCallError extends Error {
  readonly name: "ToolCallError";
  readonly toolName: ToolName;
}

declare const tools: {
  [K in ToolName]: (args: ToolArgsMap[K]) => Promise<ToolOutputMap[K]>;
}
