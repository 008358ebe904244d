"""armies"""
