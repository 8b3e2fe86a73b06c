"""Language servers for the file editor: after an edit, the problems the file now has."""
