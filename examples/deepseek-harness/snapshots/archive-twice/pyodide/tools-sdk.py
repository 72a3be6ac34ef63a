from typing import NotRequired, Protocol, TypedDict

class ToolCallError(Exception):
    toolName: str

class AddNoteArgs(TypedDict):
    text: str
    # A day, such as Tuesday.
    due: NotRequired[str]
    # Additional keys beyond those declared are allowed.

class AddNoteOutput(TypedDict):
    id: str
    text: str
    # The day the note is due, if it has one.
    due: str | None
    archived: bool

class ArchiveNoteArgs(TypedDict):
    id: str
    # Additional keys beyond those declared are allowed.

class ArchiveNoteOutput(TypedDict):
    id: str
    text: str
    # The day the note is due, if it has one.
    due: str | None
    archived: bool

class FindNotesArgs(TypedDict):
    words: str
    # Additional keys beyond those declared are allowed.

class FindNotesOutput(TypedDict):
    id: str
    text: str
    # The day the note is due, if it has one.
    due: str | None
    archived: bool

class Tools(Protocol):
    async def add_note(self, args: AddNoteArgs) -> AddNoteOutput:
        """Writes a note into the notebook and answers with it."""
    async def archive_note(self, args: ArchiveNoteArgs) -> ArchiveNoteOutput:
        """Archives a note. A note can be archived once; archiving it again fails."""
    async def find_notes(self, args: FindNotesArgs) -> list[FindNotesOutput]:
        """Lists the notes whose text holds the given words, newest first."""

tools: Tools
